/** What other features use of the keys feature: the secure-code form (choose a code with its strength). */
export { CodeForm, NoticeAlert } from "./code-form";
