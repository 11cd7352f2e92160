/**
 * The AI SDK approval id of one call of a Weft tool-approval interrupt: both ids, each URI-encoded, so
 * the answer names the interrupt to resume and the call it decides.
 *
 * @example
 * ```ts
 * approvalId('int_1', 'call_1'); // 'int_1:call_1'
 * ```
 */
export function approvalId(interruptId: string, toolCallId: string): string {
  return `${encodeURIComponent(interruptId)}:${encodeURIComponent(toolCallId)}`;
}

/**
 * Reads an approval id written by {@link approvalId}; undefined for one it did not write.
 *
 * @example
 * ```ts
 * parseApprovalId('int_1:call_1'); // { interruptId: 'int_1', toolCallId: 'call_1' }
 * ```
 */
export function parseApprovalId(id: string): { interruptId: string; toolCallId: string } | undefined {
  const parts = id.split(':');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return undefined;
  try {
    return {
      interruptId: decodeURIComponent(parts[0] as string),
      toolCallId: decodeURIComponent(parts[1] as string),
    };
  } catch {
    return undefined;
  }
}
