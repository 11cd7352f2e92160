import { BaseEdge, type EdgeProps } from '@xyflow/react';
import type { EdgeStyle } from './layout.ts';

/** Edge data: the route the layout computed, in absolute coordinates. */
export interface RoutedEdgeData extends Record<string, unknown> {
  readonly points: ReadonlyArray<{ readonly x: number; readonly y: number }>;
  readonly kind: EdgeStyle;
  /** A workflow edge's field mappings, centred where the layout placed them. */
  readonly label?: { readonly text: string; readonly x: number; readonly y: number } | undefined;
}

/** A loop from a node back to itself: an arc out of its bottom, around its right side, into its top. */
function selfLoop(props: EdgeProps): string {
  const { sourceX, sourceY, targetX, targetY } = props;
  const reach = 120;
  return `M ${sourceX} ${sourceY} C ${sourceX + reach} ${sourceY + 40}, ${targetX + reach} ${targetY - 40}, ${targetX} ${targetY}`;
}

/**
 * Draws an edge along the layout's route, falling back to a straight line; self-loops as an arc. A
 * workflow edge shows its field mappings as a label.
 */
export function RoutedEdge(props: EdgeProps) {
  const data = props.data as RoutedEdgeData | undefined;
  const points =
    data?.points && data.points.length >= 2
      ? data.points
      : [
          { x: props.sourceX, y: props.sourceY },
          { x: props.targetX, y: props.targetY },
        ];
  const path =
    props.source === props.target
      ? selfLoop(props)
      : points.map((p, i) => `${i === 0 ? 'M' : 'L'} ${p.x} ${p.y}`).join(' ');
  return (
    <BaseEdge
      id={props.id}
      path={path}
      className={`edge-${data?.kind ?? 'static'}`}
      {...(props.markerEnd ? { markerEnd: props.markerEnd } : {})}
      {...(data?.label
        ? { label: data.label.text, labelX: data.label.x, labelY: data.label.y, labelShowBg: true }
        : {})}
    />
  );
}
