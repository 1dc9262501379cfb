import { createContext, useContext } from "react";

/** The per-request CSP nonce, handed from entry.server to the document. Empty in the browser. */
export const NonceContext = createContext("");
export const useNonce = () => useContext(NonceContext);
