/**
 * How SST bundles each Lambda of the app (its `nodejs` function props). On top of SST's own
 * esbuild options for ES modules (node_modules/sst/runtime/handlers/node.js: platform node,
 * target esnext, mainFields module before main, keepNames, its createRequire banner, and only
 * sharp and pg-native external) we minify, leave out the AWS SDK v3, which the nodejs22.x
 * runtime ships, and turn keepNames off (nothing reads a mangled function's name; it costs
 * 17-19 kB per bundle). scripts/bundle-sizes.ts measures the bundles with the same options, and
 * test/stacks/bundles.test.ts runs them.
 */
export interface NodejsBundling {
  format: "esm";
  minify: boolean;
  esbuild: { external: string[]; keepNames?: boolean };
}

export const PROVIDED_BY_RUNTIME = ["@aws-sdk/*"];

/** The bundling of every Lambda of the app: the area functions and the workers alike. */
export function nodejsBundling(): NodejsBundling {
  return { format: "esm", minify: true, esbuild: { external: [...PROVIDED_BY_RUNTIME], keepNames: false } };
}
