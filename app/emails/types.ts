/** What the email templates are given (read from the database by services/email/render.server.ts). */

import type { LegalIdentity } from "~/lib/company";

/** The shop as its emails present it: the site settings and the public address of the site. */
export type EmailShop = {
  name: string;
  email: string;
  /** The postal address, one line per line, as typed in the settings. */
  address: string;
  phone: string;
  /** `https://shop.example` (no trailing slash): every link of an email starts with it. */
  publicUrl: string;
  /** The seller's legal identity, from the settings (the confirmation's seller block, the attached terms). */
  legal: LegalIdentity;
};

export type EmailOrderLine = { name: string; quantity: number; unitPriceCents: number; lineTotalCents: number };

export type EmailOrder = {
  id: number;
  /** ISO, UTC. */
  createdAt: string;
  paidAt: string | null;
  customerName: string;
  customerFirstName: string | null;
  customerEmail: string | null;
  shippingAddress: string;
  /** « Complément d'adresse », if any. */
  shippingAddress2?: string | null;
  shippingPostalCode: string;
  shippingCity: string;
  shippingCountry: string;
  /** The carrier's telephone (+33...), if any. */
  shippingPhone?: string | null;
  isSubscription: boolean;
  lines: EmailOrderLine[];
  subtotalCents: number;
  shippingCents: number;
  totalCents: number;
  /** The signed read-only tracking link (services/orders/link.server.ts). */
  trackingUrl: string;
};

export type EmailContactRequest = {
  name: string;
  email: string;
  subject: string;
  message: string;
  /** ISO, UTC. */
  createdAt: string;
};

/** One email, both parts. */
export type EmailContent = { subject: string; html: string; text: string };

/** What an address block prints: the name, the street and its complement, the town, the country, the carrier's telephone. */
export type EmailAddress = Pick<
  EmailOrder,
  "customerName" | "shippingAddress" | "shippingPostalCode" | "shippingCity" | "shippingCountry"
> &
  Partial<Pick<EmailOrder, "shippingAddress2" | "shippingPhone">>;
