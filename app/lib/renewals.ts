/** How a subscription's renewal order is named in the admin ("Renouvellement n°2"); null for any other order. */
export function renewalLabel(renewalNumber: number | null | undefined): string | null {
  return renewalNumber ? `Renouvellement n°${renewalNumber}` : null;
}
