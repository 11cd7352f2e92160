import { defaultPrices, type PriceTable } from '@weft/adk/prices';
import { useCallback, useEffect, useState } from 'react';
import type { GraphInfo } from '../../../src/shared/wire.ts';
import { api } from '../api.ts';

/**
 * The served graphs and agents (polled, so a reloaded entry module shows up), the selected one, and the
 * model prices costs are computed with.
 */
export function useGraphs() {
  const [graphs, setGraphs] = useState<GraphInfo[]>([]);
  const [loadProblems, setLoadProblems] = useState<string[]>([]);
  const [prices, setPrices] = useState<PriceTable>(defaultPrices);
  const [graphId, setGraphId] = useState<string | undefined>();
  const refresh = useCallback(async () => {
    const answer = await api.graphs();
    setGraphs((old) => (JSON.stringify(old) === JSON.stringify(answer.graphs) ? old : answer.graphs));
    setLoadProblems((old) =>
      JSON.stringify(old) === JSON.stringify(answer.problems) ? old : answer.problems,
    );
    setPrices((old) => (JSON.stringify(old) === JSON.stringify(answer.prices) ? old : answer.prices));
    setGraphId((old) => old ?? answer.graphs[0]?.id);
  }, []);
  useEffect(() => {
    void refresh().catch(() => undefined);
    const timer = window.setInterval(() => void refresh().catch(() => undefined), 4_000);
    return () => window.clearInterval(timer);
  }, [refresh]);
  return { graphs, loadProblems, prices, graph: graphs.find((g) => g.id === graphId), setGraphId };
}
