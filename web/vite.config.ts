import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The local runtime (`npm run dev`); API_PROXY points elsewhere, e.g. a second instance.
const server = process.env.API_PROXY ?? "http://localhost:3000";

export default defineConfig({
  plugins: [react()],
  resolve: {
    // The workspace root holds an older React (pinned for sst); hoisted packages such as
    // @tanstack/react-query would otherwise bind to it and break hooks with two Reacts.
    dedupe: ["react", "react-dom"],
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
            { name: "mantine", test: /node_modules[\\/]@mantine[\\/]/ },
            { name: "vendor", test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: { "/api": server, "/dev": server },
  },
});
