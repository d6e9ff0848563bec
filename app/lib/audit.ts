/** The actions the audit log records (table audit_log), and how the back office names them. */
export const AUDIT_ACTIONS = ["customer.export", "customer.erase"] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  "customer.export": "Export des données (JSON)",
  "customer.erase": "Effacement des données personnelles",
};
