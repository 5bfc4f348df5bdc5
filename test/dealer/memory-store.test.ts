import { MemoryStore } from '../../src/dealer/memory-store';
import { storeConformance } from './store-conformance';

storeConformance('memory', async (handles, options) => {
  const store = new MemoryStore(options);
  return { stores: Array.from({ length: handles }, () => store), close: () => store.close() };
});
