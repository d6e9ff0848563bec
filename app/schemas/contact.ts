import { z } from "zod";
import { safeText } from "./text";

/** Contact form and POST /api/contact: messages word for word from spec section 5. */
export const contactSchema = z.object({
  name: safeText({ error: "Le nom doit contenir au moins 2 caractères." })
    .trim()
    .min(2, "Le nom doit contenir au moins 2 caractères.")
    .max(100, "Le nom ne doit pas dépasser 100 caractères."),
  email: safeText({ error: "Veuillez entrer une adresse email valide." })
    .trim()
    .max(254, "Veuillez entrer une adresse email valide.")
    .pipe(z.email("Veuillez entrer une adresse email valide.")),
  subject: safeText({ error: "L'objet doit contenir au moins 2 caractères." })
    .trim()
    .min(2, "L'objet doit contenir au moins 2 caractères.")
    .max(200, "L'objet ne doit pas dépasser 200 caractères."),
  message: safeText({ error: "Le message doit contenir au moins 10 caractères.", multiline: true })
    .trim()
    .min(10, "Le message doit contenir au moins 10 caractères.")
    .max(5000, "Le message ne doit pas dépasser 5000 caractères."),
});

export type ContactInput = z.infer<typeof contactSchema>;

export const CONTACT_SUCCESS_MESSAGE = "Nous avons bien reçu votre message et vous répondrons dans les plus brefs délais.";
export const CONTACT_FAILURE_MESSAGE = "Une erreur est survenue lors de l'envoi du message. Veuillez réessayer.";
