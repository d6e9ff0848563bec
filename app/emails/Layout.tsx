import type { ReactNode } from "react";
import { addressLines } from "~/lib/company";
import { legalFooterLine } from "./seller";
import { COLORS, FONTS, LINK_STYLE, SMALL_STYLE } from "./theme";
import type { EmailShop } from "./types";

/**
 * The frame of every email: a 600-pixel table (what Gmail and Outlook lay out reliably), the
 * shop's name as a serif wordmark, a white card, and a footer with the shop's name, postal
 * address and contact email. No image and no remote resource: the only links are the shop's.
 */
export function EmailLayout({
  shop,
  preheader,
  title,
  children,
}: {
  shop: EmailShop;
  preheader: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <html lang="fr">
      <head>
        <meta httpEquiv="Content-Type" content="text/html; charset=utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <title>{title}</title>
      </head>
      <body style={{ margin: 0, padding: 0, backgroundColor: COLORS.ivory }}>
        {/* The preheader: the line inbox lists show after the subject, hidden in the email itself. */}
        <div
          style={{
            display: "none",
            maxHeight: 0,
            overflow: "hidden",
            opacity: 0,
            fontSize: "1px",
            lineHeight: "1px",
            color: COLORS.ivory,
          }}
        >
          {preheader}
        </div>
        <table
          role="presentation"
          width="100%"
          cellPadding={0}
          cellSpacing={0}
          style={{ backgroundColor: COLORS.ivory, borderCollapse: "collapse" }}
        >
          <tbody>
            <tr>
              <td align="center" style={{ padding: "24px 12px" }}>
                <table
                  role="presentation"
                  width={600}
                  cellPadding={0}
                  cellSpacing={0}
                  style={{ width: "100%", maxWidth: "600px", borderCollapse: "collapse" }}
                >
                  <tbody>
                    <tr>
                      <td align="center" style={{ padding: "8px 0 24px" }}>
                        <a
                          href={shop.publicUrl}
                          style={{
                            fontFamily: FONTS.serif,
                            fontSize: "26px",
                            lineHeight: "32px",
                            color: COLORS.ink,
                            textDecoration: "none",
                          }}
                        >
                          {shop.name}
                        </a>
                      </td>
                    </tr>
                    <tr>
                      <td
                        style={{
                          backgroundColor: COLORS.white,
                          borderRadius: "16px",
                          border: `1px solid ${COLORS.line}`,
                          padding: "32px 28px",
                        }}
                      >
                        {children}
                      </td>
                    </tr>
                    <tr>
                      <td align="center" style={{ padding: "24px 16px 8px" }}>
                        <EmailFooter shop={shop} />
                      </td>
                    </tr>
                  </tbody>
                </table>
              </td>
            </tr>
          </tbody>
        </table>
      </body>
    </html>
  );
}

function EmailFooter({ shop }: { shop: EmailShop }) {
  const style = { ...SMALL_STYLE, margin: "0 0 4px", textAlign: "center" as const };
  return (
    <>
      <p style={{ ...style, fontWeight: "bold", color: COLORS.ink }}>{shop.name}</p>
      <p style={style}>{addressLines(shop.address).join(", ")}</p>
      {legalFooterLine(shop) ? <p style={style}>{legalFooterLine(shop)}</p> : null}
      <p style={style}>
        <a href={`mailto:${shop.email}`} style={LINK_STYLE}>
          {shop.email}
        </a>
        {" · "}
        <a href={shop.publicUrl} style={LINK_STYLE}>
          {shop.publicUrl.replace(/^https?:\/\//, "")}
        </a>
      </p>
    </>
  );
}
