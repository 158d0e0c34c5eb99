/** The card editor popup and the card's rich body for reading, for every page type (pinboard, blog, gallery, calendar, …). */
export { type CardEditorProps, type CardParts, CardEditor } from "./card-editor";
export { type CoreField } from "./card-draft";
export { RichView } from "./rich-body";
export { CardMedia, CardThumb, isMedia } from "./card-media";
export { Comments } from "./comments";
export { PhotoBrowser, type Photo } from "./photo-browser";
export { firstCharacters, isCut, nearIndexes, wrapIndex } from "./card-text";
export { EditButton } from "./edit-button";
export { type CardPageView, CardPage } from "./card-page";
