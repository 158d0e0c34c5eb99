import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { buildSettings, testCheckDefines, viteDefines } from "./build-settings";

// The local runtime (`npm run dev`); API_PROXY points elsewhere, e.g. a second instance.
const server = process.env.API_PROXY ?? "http://localhost:3000";

export default defineConfig(({ mode }) => ({
  plugins: [react()],
  // Settings that weaken encryption come from the build, never from the API (build-settings.ts);
  // the test switches exist only in the malicious-server suite's build (its own mode).
  define: { ...viteDefines(buildSettings(process.env)), ...testCheckDefines(mode) },
  resolve: {
    // The workspace root holds an older React (pinned for sst); hoisted packages such as
    // @tanstack/react-query would otherwise bind to it and break hooks with two Reacts.
    dedupe: ["react", "react-dom"],
  },
  build: {
    outDir: "dist",
    // dist/.vite/manifest.json: which chunks the entry loads first (scripts/bundle-size.ts).
    manifest: true,
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        // Only what the first page needs ($initial) is grouped; a library that only a lazy route
        // uses (a Mantine component, the crypto) stays with that route's chunks.
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, tags: ["$initial"] },
            { name: "mantine", test: /node_modules[\\/]@mantine[\\/]/, tags: ["$initial"] },
            { name: "vendor", test: /node_modules[\\/]/, tags: ["$initial"] },
          ],
        },
      },
    },
  },
  server: {
    proxy: { "/api": server, "/dev": server },
  },
}));
