import { useId } from "react";

/** A field people never see nor fill; naive bots do. Unique id, so two forms can share a page. */
export function Honeypot() {
  const id = `website-${useId().replace(/:/g, "")}`;
  return (
    <div aria-hidden="true" className="absolute -left-[9999px] h-0 w-0 overflow-hidden">
      <label htmlFor={id}>Ne pas remplir ce champ</label>
      <input id={id} name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}
