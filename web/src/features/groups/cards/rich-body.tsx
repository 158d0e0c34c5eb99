import "@mantine/tiptap/styles.css";
import { NativeSelect } from "@mantine/core";
import { RichTextEditor } from "@mantine/tiptap";
import { FontFamily, FontSize, TextStyle } from "@tiptap/extension-text-style";
import { EditorContent, useEditor, useEditorState } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { useTranslation } from "react-i18next";
import { FONT_SIZES_PT, FONTS } from "./card-draft";
import { ns } from "./i18n";

/**
 * The optional rich HTML body of a card (spec 001 §2): tiptap through Mantine's editor, with the
 * spec's font sizes (points) and five fonts. What it answers is the editor's HTML; whoever shows a
 * card draws that HTML through the same schema (ProseMirror parses it), never as raw markup, so a
 * body sealed by another client cannot bring scripts or foreign elements.
 */
export function RichBody({ html, onChange, label }: { html: string; onChange: (html: string) => void; label: string }) {
  const { t } = useTranslation(ns);
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: false, autolink: true } }), TextStyle, FontFamily, FontSize],
    content: html,
    immediatelyRender: true,
    // Mantine's editor brings the styles; pasted HTML is pasted as text (lib/trusted-types.ts).
    injectCSS: false,
    editorProps: { attributes: { "aria-label": label, "aria-multiline": "true", role: "textbox" }, transformPastedHTML: () => "" },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? "" : e.getHTML()),
  });
  const style = useEditorState({
    editor,
    selector: ({ editor: e }) => ({ family: (e?.getAttributes("textStyle").fontFamily as string | undefined) ?? "", size: (e?.getAttributes("textStyle").fontSize as string | undefined) ?? "" }),
  });

  const labels = {
    boldControlLabel: t("rich.bold"),
    italicControlLabel: t("rich.italic"),
    underlineControlLabel: t("rich.underline"),
    strikeControlLabel: t("rich.strike"),
    bulletListControlLabel: t("rich.bulletList"),
    orderedListControlLabel: t("rich.orderedList"),
    linkControlLabel: t("rich.link"),
    unlinkControlLabel: t("rich.unlink"),
    linkEditorInputLabel: t("rich.linkAddress"),
    linkEditorInputPlaceholder: "https://",
    linkEditorExternalLink: t("rich.linkExternal"),
    linkEditorInternalLink: t("rich.linkInternal"),
    linkEditorSave: t("rich.linkSave"),
    clearFormattingControlLabel: t("rich.clear"),
  };

  return (
    <RichTextEditor editor={editor} labels={labels}>
      <RichTextEditor.Toolbar aria-label={t("rich.toolbar")}>
        <RichTextEditor.ControlsGroup>
          <NativeSelect
            size="xs"
            aria-label={t("rich.font")}
            value={style?.family ?? ""}
            data={[{ value: "", label: t("rich.defaultFont") }, ...FONTS.map((font) => ({ value: font, label: font }))]}
            onChange={(event) => {
              const value = event.currentTarget.value;
              const chain = editor.chain().focus();
              void (value ? chain.setFontFamily(value) : chain.unsetFontFamily()).run();
            }}
          />
          <NativeSelect
            size="xs"
            aria-label={t("rich.size")}
            value={style?.size ?? ""}
            data={[{ value: "", label: t("rich.defaultSize") }, ...FONT_SIZES_PT.map((pt) => ({ value: `${pt}pt`, label: `${pt} pt` }))]}
            onChange={(event) => {
              const value = event.currentTarget.value;
              const chain = editor.chain().focus();
              void (value ? chain.setFontSize(value) : chain.unsetFontSize()).run();
            }}
          />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.Bold />
          <RichTextEditor.Italic />
          <RichTextEditor.Underline />
          <RichTextEditor.Strikethrough />
          <RichTextEditor.ClearFormatting />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.BulletList />
          <RichTextEditor.OrderedList />
          <RichTextEditor.Link />
          <RichTextEditor.Unlink />
        </RichTextEditor.ControlsGroup>
      </RichTextEditor.Toolbar>
      <RichTextEditor.Content />
    </RichTextEditor>
  );
}

/**
 * A card's rich body for reading: the same schema as the editor parses the HTML (what it does not
 * know is dropped), shown without editing, so another client's markup cannot bring scripts or
 * foreign elements.
 */
export function RichView({ html, label }: { html: string; label: string }) {
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: true } }), TextStyle, FontFamily, FontSize],
    content: html,
    editable: false,
    immediatelyRender: true,
    injectCSS: false,
    // Read, not edited: an article, not a textbox.
    editorProps: { attributes: { role: "article", "aria-label": label } },
  });
  return <EditorContent editor={editor} data-rich-body />;
}
