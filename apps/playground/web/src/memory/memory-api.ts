import type { MemorySearchInfo, ThreadArtifactsInfo } from '../../../src/shared/memory-wire.ts';
import { call } from '../api.ts';

/** The Memory tab's and thread artifacts' API. */
export const memoryApi = {
  search: (userId: string, query: string) =>
    call<MemorySearchInfo>(
      'GET',
      `/api/memory?userId=${encodeURIComponent(userId)}&q=${encodeURIComponent(query)}`,
    ),
  artifacts: (threadId: string) =>
    call<ThreadArtifactsInfo>('GET', `/api/artifacts/${encodeURIComponent(threadId)}`),
};
