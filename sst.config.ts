import type { SSTConfig } from "sst";

/**
 * One stage per tenant (instance): `npx sst deploy --stage <tenant>`. Stages named "local",
 * "dev-…" or "pr-…" are throwaway and removed with everything in them; every other stage keeps
 * all its resources (data above all) when removed. See docs/deploy.md.
 */
export default {
  config() {
    return { name: "sealwork", region: "eu-central-2" };
  },
  async stacks(app) {
    // Imported here, not at the top: sst first loads this file without `stacks` just to read
    // config(). The full load bundles the stacks with the workspace packages they reach through
    // the route table (which is why those are not root dependencies: SST leaves those out).
    const [{ nodejsBundling }, { Storage, isEphemeralStage }, { Queues }, { Api }, { Web }] = await Promise.all([
      import("./stacks/bundling"),
      import("./stacks/storage"),
      import("./stacks/queues"),
      import("./stacks/api"),
      import("./stacks/web"),
    ]);
    app.setDefaultRemovalPolicy(isEphemeralStage(app.stage) ? "destroy" : "retain");
    app.setDefaultFunctionProps({
      runtime: "nodejs22.x",
      architecture: "arm_64",
      // Minified ES modules without the AWS SDK (the runtime has it); an area's function adds
      // the route-only packages of other areas (stacks/bundling.ts).
      nodejs: nodejsBundling(),
      logRetention: "one_month",
    });
    app.stack(Storage).stack(Queues).stack(Api).stack(Web);
  },
} satisfies SSTConfig;
