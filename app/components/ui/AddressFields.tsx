import { Field, type TextFieldMetadata } from "./Field";

type AddressFieldsMetadata = {
  address: TextFieldMetadata;
  address2: TextFieldMetadata;
  postalCode: TextFieldMetadata;
  city: TextFieldMetadata;
  phone: TextFieldMetadata;
};

/**
 * The delivery address's fields, from the street to the carrier's telephone: the same in the
 * checkout's delivery form and on the subscription's page, where the next deliveries' address
 * is changed. Both forms validate them with the same rules (schemas/delivery.ts).
 */
export function AddressFields({ fields }: { fields: AddressFieldsMetadata }) {
  return (
    <>
      <Field
        label="Adresse"
        field={fields.address}
        autoComplete="shipping address-line1"
        className="sm:col-span-2"
        maxLength={200}
      />
      <Field
        label="Complément d'adresse (facultatif)"
        field={fields.address2}
        autoComplete="shipping address-line2"
        className="sm:col-span-2"
        maxLength={100}
        hint="Bâtiment, étage, code d'accès..."
      />
      <Field
        label="Code postal"
        field={fields.postalCode}
        autoComplete="shipping postal-code"
        inputMode="numeric"
        maxLength={10}
      />
      <Field label="Ville" field={fields.city} autoComplete="shipping address-level2" maxLength={100} />
      <Field
        label="Téléphone (facultatif)"
        field={fields.phone}
        type="tel"
        autoComplete="shipping tel"
        className="sm:col-span-2"
        maxLength={30}
        hint="Pour le transporteur, en cas de besoin lors de la livraison."
      />
    </>
  );
}
