import { TextInput, type TextInputProps } from "@mantine/core";
import { characterCount, useLengthLimit } from "../../lib/ui/use-length-limit";

/** A conversation's or a pickup's title: at most this many characters (the form says so). */
export const TITLE_MAX = 200;

export const isTitleTooLong = (title: string): boolean => characterCount(title.trim()) > TITLE_MAX;

/** The title input with its limit shown; the form checks `isTitleTooLong` before it submits. */
export function TitleField({ value, ...props }: Omit<TextInputProps, "value" | "maxLength" | "error" | "description"> & { value: string }) {
  const limit = useLengthLimit(value.trim(), TITLE_MAX);
  return <TextInput {...props} value={value} description={limit.description} error={limit.error} />;
}
