/** The messages of a record that does not exist, shared by the pages' titles and the services. */
export const CUSTOMER_NOT_FOUND = "Client introuvable";
export const EMAIL_NOT_FOUND = "Email introuvable";
