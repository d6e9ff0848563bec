import type { FieldMetadata } from "@conform-to/react";
import { getInputProps, getTextareaProps } from "@conform-to/react";

/** A text field's metadata; an optional field may also be null (an API body's "no value"). */
export type TextFieldMetadata = FieldMetadata<string | undefined> | FieldMetadata<string | null | undefined>;

type FieldProps = {
  label: string;
  field: TextFieldMetadata;
  type?: "text" | "email" | "tel" | "password" | "number" | "search";
  autoComplete?: string;
  inputMode?: React.HTMLAttributes<HTMLInputElement>["inputMode"];
  maxLength?: number;
  hint?: string;
  className?: string;
};

/** Label, input, error message and their accessibility attributes, the same in every form. */
export function Field({ label, field, type = "text", autoComplete, inputMode, maxLength, hint, className = "" }: FieldProps) {
  const props = getInputProps(field, { type, ariaAttributes: true });
  const hintId = hint ? `${field.id}-hint` : undefined;
  const describedBy = [props["aria-describedby"], hintId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <label htmlFor={field.id} className="block text-sm font-medium text-ink">
        {label}
      </label>
      <input
        {...props}
        key={props.key}
        aria-describedby={describedBy}
        autoComplete={autoComplete}
        inputMode={inputMode}
        maxLength={maxLength}
        className="field-input mt-1"
      />
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-ink-soft">
          {hint}
        </p>
      ) : null}
      <FieldError id={field.errorId} errors={field.errors} />
    </div>
  );
}

export function TextareaField({
  label,
  field,
  rows = 5,
  className = "",
}: {
  label: string;
  field: TextFieldMetadata;
  rows?: number;
  className?: string;
}) {
  const props = getTextareaProps(field, { ariaAttributes: true });
  return (
    <div className={className}>
      <label htmlFor={field.id} className="block text-sm font-medium text-ink">
        {label}
      </label>
      <textarea {...props} key={props.key} rows={rows} className="field-input mt-1" />
      <FieldError id={field.errorId} errors={field.errors} />
    </div>
  );
}

export function FieldError({ id, errors }: { id: string; errors?: string[] }) {
  return (
    <div id={id} className="min-h-5 pt-1 text-sm text-rose-700" aria-live="polite">
      {errors?.length ? errors[0] : null}
    </div>
  );
}
