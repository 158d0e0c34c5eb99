export { UploadSweep } from "./sweep";
