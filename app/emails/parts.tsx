import type { ReactNode } from "react";
import { addressLines } from "~/lib/company";
import { formatPrice, shippingLabel } from "~/lib/money";
import { COLORS, FONTS, SMALL_STYLE, TEXT_STYLE } from "./theme";
import type { EmailAddress, EmailOrder } from "./types";
import { formatFrenchPhone } from "~/lib/phone";

/** The small building blocks of the emails, all inline-styled. */

export function Heading({ children }: { children: ReactNode }) {
  return (
    <h1
      style={{
        margin: "0 0 16px",
        fontFamily: FONTS.serif,
        fontSize: "24px",
        lineHeight: "32px",
        fontWeight: "normal",
        color: COLORS.ink,
      }}
    >
      {children}
    </h1>
  );
}

export function SubHeading({ children }: { children: ReactNode }) {
  return (
    <h2
      style={{
        margin: "28px 0 12px",
        fontFamily: FONTS.serif,
        fontSize: "19px",
        lineHeight: "26px",
        fontWeight: "normal",
        color: COLORS.ink,
      }}
    >
      {children}
    </h2>
  );
}

export function Paragraph({ children, small = false }: { children: ReactNode; small?: boolean }) {
  return <p style={small ? SMALL_STYLE : TEXT_STYLE}>{children}</p>;
}

/** Text someone typed, line breaks kept (React escapes it). */
export function UserText({ children }: { children: string }) {
  return <p style={{ ...TEXT_STYLE, whiteSpace: "pre-wrap", wordBreak: "break-word" }}>{children}</p>;
}

/** A call-to-action link drawn as a button (a table cell, so Outlook keeps its colour). */
export function Button({ href, children }: { href: string; children: ReactNode }) {
  return (
    <table role="presentation" cellPadding={0} cellSpacing={0} style={{ margin: "8px 0 24px", borderCollapse: "separate" }}>
      <tbody>
        <tr>
          <td style={{ backgroundColor: COLORS.rose700, borderRadius: "999px" }}>
            <a
              href={href}
              style={{
                display: "inline-block",
                padding: "12px 26px",
                fontFamily: FONTS.sans,
                fontSize: "15px",
                fontWeight: "bold",
                color: COLORS.white,
                textDecoration: "none",
              }}
            >
              {children}
            </a>
          </td>
        </tr>
      </tbody>
    </table>
  );
}

/** A tinted box setting a block apart (the subscription terms, the withdrawal form). */
export function Box({ children, tint = COLORS.rose50 }: { children: ReactNode; tint?: string }) {
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
          <td style={{ backgroundColor: tint, borderRadius: "12px", padding: "16px 18px" }}>{children}</td>
        </tr>
      </tbody>
    </table>
  );
}

/** Label/value rows: an order's details, the totals. */
export function DetailRows({ rows, strongLast = false }: { rows: [string, ReactNode][]; strongLast?: boolean }) {
  return (
    <table
      role="presentation"
      width="100%"
      cellPadding={0}
      cellSpacing={0}
      style={{ margin: "0 0 16px", borderCollapse: "collapse" }}
    >
      <tbody>
        {rows.map(([label, value], i) => {
          const strong = strongLast && i === rows.length - 1;
          const cell = {
            padding: "6px 0",
            fontFamily: FONTS.sans,
            fontSize: strong ? "16px" : "14px",
            lineHeight: "22px",
            color: COLORS.ink,
            fontWeight: strong ? "bold" : "normal",
          } as const;
          const border = strong ? { borderTop: `1px solid ${COLORS.line}`, paddingTop: "10px" } : {};
          return (
            <tr key={label}>
              <td style={{ ...cell, ...border, color: strong ? COLORS.ink : COLORS.inkSoft }}>{label}</td>
              <td align="right" style={{ ...cell, ...border }}>
                {value}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** The order's lines (pack × quantity, price) and its totals, shipping included. */
export function OrderLines({ order }: { order: Pick<EmailOrder, "lines" | "subtotalCents" | "shippingCents" | "totalCents"> }) {
  return (
    <>
      <DetailRows
        rows={order.lines.map((l): [string, ReactNode] => [`${l.name} × ${l.quantity}`, formatPrice(l.lineTotalCents)])}
      />
      <DetailRows
        strongLast
        rows={[
          ["Sous-total", formatPrice(order.subtotalCents)],
          ["Livraison", shippingLabel(order.shippingCents)],
          ["Total", formatPrice(order.totalCents)],
        ]}
      />
    </>
  );
}

/** The delivery address of an order. */
export function AddressBlock({ order }: { order: EmailAddress }) {
  const lines = [
    order.customerName,
    ...addressLines(order.shippingAddress),
    order.shippingAddress2 ?? "",
    `${order.shippingPostalCode} ${order.shippingCity}`,
    order.shippingCountry,
    order.shippingPhone ? `Tél. ${formatFrenchPhone(order.shippingPhone)}` : "",
  ].filter((l) => l.trim() !== "");
  return (
    <p style={{ ...TEXT_STYLE }}>
      {lines.map((line, i) => (
        <span key={i}>
          {i > 0 ? <br /> : null}
          {line}
        </span>
      ))}
    </p>
  );
}

export function Divider() {
  return <hr style={{ border: 0, borderTop: `1px solid ${COLORS.line}`, margin: "24px 0" }} />;
}
