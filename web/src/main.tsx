// First: the Trusted Types default policy must exist before anything renders (lib/trusted-types.ts).
import "./lib/trusted-types";
import "@mantine/core/styles.css";
import "@mantine/notifications/styles.css";
import "./lib/i18n";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
