import { useEffect } from "react";
import { useInstance } from "./instance";

/** Sets the document title to the product title plus the page's name: "Sealwork - Settings". */
export function usePageTitle(name: string): void {
  const { title } = useInstance();
  useEffect(() => {
    document.title = `${title} - ${name}`;
  }, [title, name]);
}
