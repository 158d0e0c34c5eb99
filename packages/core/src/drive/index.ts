export { Drive } from "./drive";
