import type { Block, Inline } from "~/legal/terms-of-sale";
import { CompanyContact } from "./CompanyContact";
import { TextLink } from "./TextLink";

/** Running text of a legal text: links, bold and superscripts. */
export function InlineText({ content }: { content: Inline[] }) {
  return (
    <>
      {content.map((piece, i) => {
        if (typeof piece === "string") return piece;
        if ("link" in piece)
          return (
            <TextLink key={i} to={piece.link}>
              {piece.text}
            </TextLink>
          );
        if ("strong" in piece)
          return (
            <strong key={i} className="text-ink">
              {piece.strong}
            </strong>
          );
        return <sup key={i}>{piece.sup}</sup>;
      })}
    </>
  );
}

/** The blocks of a legal text's section, in the legal pages' typography. */
export function LegalBlocks({ blocks }: { blocks: Block[] }) {
  return (
    <>
      {blocks.map((block, i) => {
        switch (block.kind) {
          case "paragraph":
            return (
              <p key={i}>
                <InlineText content={block.content} />
              </p>
            );
          case "list":
            return (
              <ul key={i}>
                {block.items.map((item, j) => (
                  <li key={j}>
                    <InlineText content={item} />
                  </li>
                ))}
              </ul>
            );
          case "withdrawalForm":
            return (
              <div key={i} className="mt-4 rounded-xl border border-ink/15 bg-white p-4 text-sm" data-testid="withdrawal-form">
                <p className="!mt-0 font-semibold !text-ink">{block.title}</p>
                {block.paragraphs.map((text, j) => (
                  <p key={j}>{text}</p>
                ))}
              </div>
            );
          case "contact":
            return <CompanyContact key={i} settings={block.contact} company={block.name} />;
        }
      })}
    </>
  );
}
