/** The card editor popup and the card's rich body for reading, for every page type (pinboard, blog, gallery, calendar, …). */
export { type CardEditorProps, type CardParts, CardEditor } from "./card-editor";
export { type CoreField } from "./card-draft";
export { RichView } from "./rich-body";
