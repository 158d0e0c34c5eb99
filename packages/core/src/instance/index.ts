export { Instance } from "./instance";
export { Health } from "./health";
