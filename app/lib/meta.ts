import { BRAND } from "./brand";

/** Title and description of a page; every page has its own. */
export function pageMeta(title: string, description: string) {
  return [{ title: `${title} | ${BRAND}` }, { name: "description", content: description }];
}
