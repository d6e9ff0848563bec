import type { Block, Inline, TermsOfSale } from "~/legal/terms-of-sale";
import { termsVersionLabel } from "~/legal/terms-of-sale";
import { addressLines } from "~/lib/company";
import { COLORS, FONTS, LINK_STYLE, SMALL_STYLE, TEXT_STYLE } from "./theme";

/**
 * The terms of sale as a standalone HTML document, attached to the order confirmation so the
 * customer keeps the version they accepted. Links to the shop's pages are absolute; an outside
 * address is written out as text, not linked.
 */

function InlineHtml({ content, baseUrl }: { content: Inline[]; baseUrl: string }) {
  return (
    <>
      {content.map((piece, i) => {
        if (typeof piece === "string") return piece;
        if ("strong" in piece) return <strong key={i}>{piece.strong}</strong>;
        if ("sup" in piece) return <sup key={i}>{piece.sup}</sup>;
        const href = piece.link.startsWith("/")
          ? `${baseUrl}${piece.link}`
          : piece.link.startsWith("mailto:")
            ? piece.link
            : null;
        return href ? (
          <a key={i} href={href} style={LINK_STYLE}>
            {piece.text}
          </a>
        ) : (
          piece.text
        );
      })}
    </>
  );
}

function BlockHtml({ block, baseUrl }: { block: Block; baseUrl: string }) {
  switch (block.kind) {
    case "paragraph":
      return (
        <p style={TEXT_STYLE}>
          <InlineHtml content={block.content} baseUrl={baseUrl} />
        </p>
      );
    case "list":
      return (
        <ul style={{ ...TEXT_STYLE, paddingLeft: "22px" }}>
          {block.items.map((item, j) => (
            <li key={j}>
              <InlineHtml content={item} baseUrl={baseUrl} />
            </li>
          ))}
        </ul>
      );
    case "withdrawalForm":
      return <WithdrawalFormBox title={block.title} paragraphs={block.paragraphs} />;
    case "contact":
      return (
        <p style={TEXT_STYLE}>
          <strong>{block.name}</strong>
          {addressLines(block.contact.siteAddress).map((line, j) => (
            <span key={j}>
              <br />
              {line}
            </span>
          ))}
          <br />
          Email :{" "}
          <a href={`mailto:${block.contact.siteEmail}`} style={LINK_STYLE}>
            {block.contact.siteEmail}
          </a>
          <br />
          Téléphone : {block.contact.sitePhone}
        </p>
      );
  }
}

/** The model withdrawal form in a bordered box (the terms and the order confirmation show it). */
export function WithdrawalFormBox({ title, paragraphs }: { title: string; paragraphs: string[] }) {
  return (
    <table
      role="presentation"
      width="100%"
      cellPadding={0}
      cellSpacing={0}
      style={{ margin: "8px 0 20px", borderCollapse: "collapse" }}
    >
      <tbody>
        <tr>
          <td style={{ border: `1px solid ${COLORS.line}`, borderRadius: "12px", padding: "16px 18px" }}>
            <p style={{ ...TEXT_STYLE, fontWeight: "bold", margin: "0 0 10px" }}>{title}</p>
            {paragraphs.map((text, j) => (
              <p key={j} style={{ ...SMALL_STYLE, margin: "0 0 8px" }}>
                {text}
              </p>
            ))}
          </td>
        </tr>
      </tbody>
    </table>
  );
}

export function TermsDocument({ terms, shopName, baseUrl }: { terms: TermsOfSale; shopName: string; baseUrl: string }) {
  const title = `${terms.title} – ${shopName} – version du ${termsVersionLabel(terms.version)}`;
  return (
    <html lang="fr">
      <head>
        <meta httpEquiv="Content-Type" content="text/html; charset=utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
      </head>
      <body style={{ margin: 0, padding: "24px 16px", backgroundColor: COLORS.white, color: COLORS.ink, fontFamily: FONTS.sans }}>
        <div style={{ maxWidth: "720px", margin: "0 auto" }}>
          <h1 style={{ fontFamily: FONTS.serif, fontSize: "28px", lineHeight: "36px", fontWeight: "normal", margin: "0 0 8px" }}>
            {terms.title}
          </h1>
          <p style={SMALL_STYLE}>
            {shopName} – version du {termsVersionLabel(terms.version)}
          </p>
          <p style={TEXT_STYLE}>
            <InlineHtml content={terms.intro} baseUrl={baseUrl} />
          </p>
          {terms.sections.map((section, i) => (
            <section key={section.id} id={section.id}>
              <h2
                style={{
                  fontFamily: FONTS.serif,
                  fontSize: "20px",
                  lineHeight: "28px",
                  fontWeight: "normal",
                  margin: "28px 0 12px",
                }}
              >
                {i + 1}. {section.title}
              </h2>
              {section.blocks.map((block, j) => (
                <BlockHtml key={j} block={block} baseUrl={baseUrl} />
              ))}
            </section>
          ))}
        </div>
      </body>
    </html>
  );
}
