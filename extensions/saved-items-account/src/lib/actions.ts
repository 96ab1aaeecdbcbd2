import { useState } from "preact/hooks";
import { toSavedItemsError, type SavedItemsError } from "../../../shared/errors";

/**
 * A panel's buttons, one action at a time: which one is running (its button spins, the others
 * wait) and the error the last one ended with, shown until the next starts or it is dismissed.
 */
export function useActions<Kind extends string>() {
  const [busy, setBusy] = useState<Kind | null>(null);
  const [error, setError] = useState<SavedItemsError | null>(null);

  async function run(kind: Kind, work: () => Promise<void>) {
    setError(null);
    setBusy(kind);
    try {
      await work();
    } catch (caught) {
      setError(toSavedItemsError(caught));
    } finally {
      setBusy(null);
    }
  }

  return { busy, error, dismissError: () => setError(null), run };
}
