/**
 * The floor under an append: the same transaction an append writes (the create-only local-id
 * item and the message item, no attachments), sent straight to the runtime's DynamoDB Local by
 * `clients` concurrent writers, `rounds` each, with nothing else around it (no HTTP, no token,
 * no access check, no id from the counter). The append's latency as a ratio to this, measured
 * in the same run, says what the API adds on this machine however busy it is.
 */
export async function bareTransactionLatency(env: Record<string, string>, conversationId: number, clients: number, rounds: number): Promise<number[]> {
  Object.assign(process.env, env);
  const { db } = await import("@sealwork/core/db/service");
  const samples: number[] = [];
  let next = 1_000_000_000;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let round = 0; round < rounds; round++) {
        const id = next++;
        const localid = `bare-${client}-${round}`;
        const started = performance.now();
        await db()
          .transaction.write(({ localid: l, mote }) => [
            l.create({ conversationId, userId: client + 1, localid, moteId: id }).commit(),
            mote.create({ conversationId, id, sourceId: client + 1, timestamp: Math.floor(Date.now() / 1000), payload: "x".repeat(200), localid }).commit(),
          ])
          .go();
        samples.push(performance.now() - started);
      }
    }),
  );
  return samples;
}
