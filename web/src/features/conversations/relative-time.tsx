import { Tooltip } from "@mantine/core";
import { useState } from "react";
import { useNow } from "../../lib/use-now";
import { exactTime, relativeTime } from "./conversation-time";
import classes from "./relative-time.module.css";

/**
 * "5 minutes ago" in the interface `language` (the caller's, so that a long list does not subscribe
 * every row to the translations), refreshed while the page stays open, with the exact time (de-CH)
 * as tooltip and as the time element's machine-readable value. The tooltip is set up on the first
 * hover, opening at once: a message list draws many of these while paging back (issue 9), and the
 * tooltip's positioning hooks cost more than the time itself. For the same reason a plain element
 * with a stylesheet (as Mantine's Text with size="xs" c="dimmed"), not a Text.
 */
export function RelativeTime({ seconds, language }: { seconds: number; language: string }) {
  const now = useNow();
  const [hovered, setHovered] = useState(false);
  const time = (
    <time className={classes.time} dateTime={new Date(seconds * 1000).toISOString()} onMouseEnter={hovered ? undefined : () => setHovered(true)}>
      {relativeTime(seconds, language, now)}
    </time>
  );
  return hovered ? (
    <Tooltip label={exactTime(seconds)} defaultOpened>
      {time}
    </Tooltip>
  ) : (
    time
  );
}
