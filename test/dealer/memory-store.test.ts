import { MemoryStore } from '../../src/dealer/memory-store';
import { storeConformance } from './store-conformance';

storeConformance('memory', async (handles) => {
  const store = new MemoryStore();
  return { stores: Array.from({ length: handles }, () => store), close: () => store.close() };
});
