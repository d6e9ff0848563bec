import { useForm, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { Field } from "~/components/ui/Field";
import { billingSchema, initialBilling, type Billing, type BillingField, type BillingInput } from "~/schemas/billing";

/**
 * The billing address of the card payment step (spec section 5, 'Payment billing form'),
 * a Conform form on billingSchema like the shop's other forms. The payment form itself never
 * posts: the pay button asks validate() for the checked address.
 */

/** The billing inputs in the order they show: the first invalid one gets the focus. */
const BILLING_FIELDS: BillingField[] = ["firstName", "lastName", "address", "postalCode", "city"];

/** Every billing input is marked required; the messages come from billingSchema. */
const REQUIRED = Object.fromEntries(BILLING_FIELDS.map((name) => [name, { required: true }]));

type Prefill = Partial<Record<BillingField, string>> | null | undefined;

/**
 * The billing form's state. `id` is the payment form's id: the inputs are `${id}-firstName`...
 * A field is checked when the shopper leaves it, and again at each keystroke while it shows
 * an error (onInput).
 */
export function useBillingForm({ id, prefill, customerName }: { id: string; prefill: Prefill; customerName: string }) {
  const [defaultValue] = useState(() => initialBilling(prefill, customerName));
  const [form, fields] = useForm<BillingInput>({
    id,
    defaultValue,
    constraint: REQUIRED,
    shouldValidate: "onBlur",
    shouldRevalidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: billingSchema }),
  });

  /** Digits only, 5 at most, in the postal code; a field that shows an error is checked again. */
  function onInput(event: React.FormEvent<HTMLElement>) {
    const input = event.target;
    if (!(input instanceof HTMLInputElement)) return;
    const name = BILLING_FIELDS.find((field) => field === input.name);
    if (!name) return;
    if (name === "postalCode") {
      const digits = input.value.replace(/\D/g, "").slice(0, 5);
      if (digits !== input.value) input.value = digits;
    }
    if (fields[name].errors) form.validate({ name });
  }

  /** True when the billing address is complete and valid (nothing shown, nothing focused). */
  function isValid(): boolean {
    const element = document.forms.namedItem(form.id);
    return element ? parseWithZod(new FormData(element), { schema: billingSchema }).status === "success" : false;
  }

  /**
   * The checked billing address, or null: then every field shows its message and the first
   * invalid one gets the focus, scrolled to the middle of the screen (clear of the toasts at
   * the top).
   */
  function validate(): Billing | null {
    const element = document.forms.namedItem(form.id);
    if (!element) return null;
    const submission = parseWithZod(new FormData(element), { schema: billingSchema });
    if (submission.status === "success") return submission.value;
    form.validate();
    const first = BILLING_FIELDS.find((name) => submission.error?.[name]);
    const input = first ? element.elements.namedItem(first) : null;
    if (input instanceof HTMLInputElement) {
      input.focus({ preventScroll: true });
      input.scrollIntoView({ block: "center" });
    }
    return null;
  }

  return { form, fields, onInput, validate, isValid };
}

type BillingFieldsMetadata = Record<BillingField, FieldMetadata<string | undefined>>;

/** The billing inputs (Prénom, Nom, Adresse, Code postal, Ville) and the fixed country. */
export function BillingFields({
  id,
  fields,
  disabled,
  onInput,
}: {
  id: string;
  fields: BillingFieldsMetadata;
  disabled: boolean;
  onInput: (event: React.FormEvent<HTMLElement>) => void;
}) {
  return (
    <fieldset disabled={disabled} onInput={onInput}>
      <legend className="text-base font-semibold text-ink">Adresse de facturation</legend>
      <div className="mt-3 grid gap-x-4 sm:grid-cols-2">
        <Field label="Prénom" field={fields.firstName} autoComplete="billing given-name" />
        <Field label="Nom" field={fields.lastName} autoComplete="billing family-name" />
        <Field label="Adresse" field={fields.address} autoComplete="billing address-line1" className="sm:col-span-2" />
        <Field
          label="Code postal"
          field={fields.postalCode}
          autoComplete="billing postal-code"
          inputMode="numeric"
          maxLength={5}
        />
        <Field label="Ville" field={fields.city} autoComplete="billing address-level2" />
        <div>
          <label htmlFor={`${id}-country`} className="block text-sm font-medium text-ink">
            Pays
          </label>
          <input
            id={`${id}-country`}
            type="text"
            value="France"
            readOnly
            aria-readonly="true"
            className="field-input mt-1 bg-sand/40"
          />
        </div>
      </div>
    </fieldset>
  );
}
