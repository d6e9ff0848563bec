/** The messages of a record that does not exist, shared by the pages' titles and the services. */
export const CUSTOMER_NOT_FOUND = "Client introuvable";
export const EMAIL_NOT_FOUND = "Email introuvable";

/** The heading of every "page not found" screen (shop, back office), in French. */
export const NOT_FOUND_HEADING = "Page introuvable (erreur 404)";
