// A webhook handler that runs once per GitHub delivery id: Probot hands every
// delivery to the handler, the same id included when GitHub redelivers it, and
// a second run would reply twice to a refused command or queue a second scan
// of a comment already acted on. A redelivery of a delivery whose handler
// failed runs again (the claim is released), which is what GitHub's retry is for.
import type { QueueLog } from "../queue/queue-log.ts";
import type { DeliveryClaims } from "../state/delivery-claims.ts";

/** What Probot's context carries that this needs: the delivery id and the event name. */
interface DeliveryContext {
  id: string;
  name: string;
}

/** Wraps handlers; `handler` names the handler, so two handlers of one delivery each run once. */
export type OncePerDelivery = ReturnType<typeof oncePerDelivery>;

export function oncePerDelivery(params: { claims: DeliveryClaims; log: QueueLog }) {
  const { claims, log } = params;
  return <C extends DeliveryContext>(handler: string, run: (context: C) => Promise<void>) =>
    async (context: C): Promise<void> => {
      const key = `${context.id}:${handler}`;
      if (!(await claims.claim(key))) {
        log.info({ delivery: context.id, event: context.name, handler }, "delivery already handled; skipped");
        return;
      }
      try {
        await run(context);
      } catch (error) {
        await claims.release(key);
        throw error;
      }
      await claims.done(key);
    };
}
