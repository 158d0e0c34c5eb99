import { Duration } from "aws-cdk-lib";
import { HeadersFrameOption, HeadersReferrerPolicy, ResponseHeadersPolicy } from "aws-cdk-lib/aws-cloudfront";
import { StaticSite, use, type StackContext } from "sst/constructs";
import { BUILD_SETTING_NAMES, buildSettings } from "../web/build-settings";
import { Api } from "./api";
import { HSTS_MAX_AGE_SECONDS, SITE_HEADERS, contentSecurityPolicy } from "./site-headers";
import { Storage, tenantSettings } from "./storage";

/**
 * CDK context key naming a folder that already holds the built SPA. When set, the site is
 * uploaded from there and `npm run build` is not run: the offline stack tests use it so that
 * synthesis does not run Vite. Deployments leave it unset.
 */
export const PREBUILT_WEB_CONTEXT = "sealwork:prebuiltWeb";

/** The React SPA (web/) on S3 behind CloudFront. */
export function Web({ stack, app }: StackContext) {
  const { api, functions } = use(Api);
  const { bucket } = use(Storage);
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
    // The tenant's secure-code settings go into its build only, never to the API (web/build-settings.ts).
    environment: { VITE_API_URL: api.url, ...webBuildEnvironment(process.env) },
    cdk: { distribution: { defaultBehavior: { responseHeadersPolicy: securityHeaders(stack, api.url, `https://${bucket.bucketName}.s3.${stack.region}.amazonaws.com`) } } },
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

/**
 * The settings the SPA build reads (web/build-settings.ts), from `.env.<tenant>` or CI; checked
 * at synth time, so a tenant with codes switched off but no default code fails before it deploys.
 */
export function webBuildEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  buildSettings(env);
  const out: Record<string, string> = {};
  for (const name of BUILD_SETTING_NAMES) {
    const value = env[name];
    if (value !== undefined && value !== "") out[name] = value;
  }
  return out;
}

/**
 * The site's security headers on every CloudFront answer (stacks/site-headers.ts, the same the local
 * runtime sends): the Content-Security-Policy naming the API and the bucket (where the SDK's
 * presigned URLs point: https://<bucket>.s3.<region>.amazonaws.com), frame denial, no referrer,
 * nosniff, HSTS, and the opener and permissions policies.
 */
function securityHeaders(stack: StackContext["stack"], apiUrl: string, bucketOrigin: string): ResponseHeadersPolicy {
  return new ResponseHeadersPolicy(stack, "SecurityHeaders", {
    comment: "Sealwork: CSP, HSTS, frame denial, no referrer",
    securityHeadersBehavior: {
      contentSecurityPolicy: { contentSecurityPolicy: contentSecurityPolicy({ api: apiUrl, bucket: bucketOrigin }, { https: true }), override: true },
      strictTransportSecurity: { accessControlMaxAge: Duration.seconds(HSTS_MAX_AGE_SECONDS), includeSubdomains: true, override: true },
      frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
      referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
      contentTypeOptions: { override: true },
    },
    customHeadersBehavior: {
      customHeaders: [
        { header: "Cross-Origin-Opener-Policy", value: SITE_HEADERS["cross-origin-opener-policy"], override: true },
        { header: "Permissions-Policy", value: SITE_HEADERS["permissions-policy"], override: true },
      ],
    },
  });
}
