import { Link } from "@remix-run/react";
import { ORDER_HREF } from "./Hero";
import { LockIcon, RefundIcon, TruckIcon } from "./icons";

export const REASSURANCE_NOTES = [
  { label: "Livraison gratuite", Icon: TruckIcon },
  { label: "Satisfait ou remboursé", Icon: RefundIcon },
  { label: "Paiement sécurisé", Icon: LockIcon },
];

export function ClosingCta() {
  return (
    <section aria-labelledby="cta-title" className="container-page below-fold pb-4 pt-16 md:pt-24">
      <div className="overflow-hidden rounded-[2rem] bg-rose-700 px-6 py-12 text-center text-white shadow-xl shadow-rose-200/60 sm:px-12 md:py-16">
        <h2 id="cta-title" className="font-serif text-3xl leading-tight md:text-4xl">
          Offrez à votre peau l'éclat qu'elle mérite
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-rose-50">
          Commencez par le coffret d'essai et voyez la différence dès la première pose.
        </p>
        <Link
          to={ORDER_HREF}
          className="btn-primary mt-8 bg-white px-8 py-4 text-lg text-rose-700 hover:bg-rose-50 focus-visible:outline-white"
        >
          Commander maintenant
        </Link>
        <ul className="mt-8 flex flex-col items-center justify-center gap-3 text-sm font-medium sm:flex-row sm:gap-8">
          {REASSURANCE_NOTES.map(({ label, Icon }) => (
            <li key={label} className="flex items-center gap-2">
              <Icon className="h-5 w-5 text-rose-100" />
              {label}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
