import { createContext, useContext } from "react";

/** The CSP nonce of the current document, provided by entry.server. */
const NonceContext = createContext<string>("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
