import { StaticSite, use, type StackContext } from "sst/constructs";
import { Api } from "./api";
import { tenantSettings } from "./storage";

/**
 * CDK context key naming a folder that already holds the built SPA. When set, the site is
 * uploaded from there and `npm run build` is not run: the offline stack tests use it so that
 * synthesis does not run Vite. Deployments leave it unset.
 */
export const PREBUILT_WEB_CONTEXT = "sealwork:prebuiltWeb";

/** The React SPA (web/) on S3 behind CloudFront. */
export function Web({ stack, app }: StackContext) {
  const { api, functions } = use(Api);
  const settings = tenantSettings();
  const prebuilt = app.node.tryGetContext(PREBUILT_WEB_CONTEXT) as string | undefined;

  const site = new StaticSite(stack, "Site", {
    ...(prebuilt
      ? { path: prebuilt, buildOutput: "." }
      : {
          path: "web",
          buildCommand: "npm run build",
          buildOutput: "dist",
          // SST writes Vite env typings for `environment`; web/src/env.d.ts already declares
          // them (with different modifiers), so keep SST's copy out of the source tree.
          vite: { types: "../.sst/web-env.d.ts" },
        }),
    // Unknown paths serve index.html: the SPA's router handles them.
    errorPage: "redirect_to_index_page",
    // api.url is a deploy-time token: SST builds with a placeholder and fills it in on upload.
    environment: { VITE_API_URL: api.url },
    ...(settings.domain
      ? { customDomain: { domainName: settings.domain, hostedZone: settings.hostedZone ?? settings.domain } }
      : {}),
  });

  if (!settings.siteUrl) {
    // The CloudFront URL is only known after this stack is created, and the Api stack cannot
    // reference it (Web already depends on Api). SST's site binding stores the URL in SSM and
    // gives each function SST_StaticSite_url_Site, which the core resolves to APP_URL at cold start.
    for (const fn of functions) fn.bind([site]);
  }

  // The first administrator signs up through <SiteUrl>/setup#<SETUP_TOKEN> (docs/deploy.md).
  stack.addOutputs({ SiteUrl: site.customDomainUrl ?? site.url ?? "" });

  return { site };
}
