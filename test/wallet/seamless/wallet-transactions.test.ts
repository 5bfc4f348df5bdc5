import { Redis } from 'ioredis';
import { MemoryWalletTransactions } from '../../../src/wallet/seamless/wallet-transactions';
import { RedisWalletTransactions } from '../../../src/wallet/seamless/redis-wallet-transactions';
import { RedisServer } from '../../../tools/redis-server';
import { walletTransactionsConformance } from './wallet-transactions-conformance';

walletTransactionsConformance('memory', async (handles) => {
  const outbox = new MemoryWalletTransactions();
  return { outboxes: Array.from({ length: handles }, () => outbox), close: async () => undefined };
});

let redis: RedisServer | undefined;
let prefixes = 0;
after(async () => {
  await redis?.stop();
});
walletTransactionsConformance('redis', async (handles) => {
  redis ??= await RedisServer.start();
  const prefix = `test-wtx-${++prefixes}`;
  const clients = Array.from({ length: handles }, () => new Redis(redis!.url));
  return {
    outboxes: clients.map((client) => new RedisWalletTransactions(client, prefix)),
    close: async () => clients.forEach((client) => client.disconnect()),
  };
});
