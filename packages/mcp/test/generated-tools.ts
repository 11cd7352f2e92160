import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const services: Record<string, { what: string; objects: string[] }> = {
  github: { what: 'GitHub', objects: ['issue', 'pull_request', 'repository', 'release', 'workflow'] },
  jira: { what: 'Jira', objects: ['ticket', 'sprint', 'epic', 'board', 'worklog'] },
  slack: { what: 'Slack', objects: ['message', 'channel', 'reminder', 'user_group', 'bookmark'] },
  gmail: { what: 'Gmail', objects: ['email', 'draft', 'label', 'filter', 'thread'] },
  calendar: { what: 'Google Calendar', objects: ['event', 'attendee', 'calendar', 'room', 'availability'] },
  drive: { what: 'Google Drive', objects: ['file', 'folder', 'permission', 'comment', 'revision'] },
  salesforce: { what: 'Salesforce', objects: ['lead', 'opportunity', 'account', 'contact', 'campaign'] },
  stripe: { what: 'Stripe', objects: ['invoice', 'customer', 'subscription', 'refund', 'payout'] },
  zendesk: {
    what: 'Zendesk',
    objects: ['support_ticket', 'macro', 'article', 'satisfaction_rating', 'agent'],
  },
  notion: { what: 'Notion', objects: ['page', 'database', 'block', 'workspace_member', 'template'] },
};
const verbs = ['create', 'get', 'list', 'update', 'delete', 'send'] as const;

/** 300 tools of ten services (6 verbs × 5 objects each), described as real MCP servers describe theirs. */
export function generatedTools() {
  return Object.entries(services).flatMap(([service, { what, objects }]) =>
    objects.flatMap((object) =>
      verbs.map((verb) => {
        const noun = object.replaceAll('_', ' ');
        const description = `${verb[0]!.toUpperCase()}${verb.slice(1)}s ${verb === 'list' ? `${noun}s` : `a ${noun}`} in ${what}. Use it when the user asks to ${verb} ${noun} items in their ${what} workspace; returns the ${noun} as JSON with its id, timestamps and the fields you set.`;
        const shape: Record<string, z.ZodType> =
          verb === 'create' || verb === 'send'
            ? {
                title: z.string().describe(`Title or subject of the ${noun}`),
                body: z.string().describe('Text content').optional(),
              }
            : verb === 'list'
              ? {
                  query: z.string().describe('Filter text').optional(),
                  limit: z.number().int().describe('Maximum results').optional(),
                }
              : {
                  id: z.string().describe(`The ${noun} id`),
                  fields: z.record(z.string(), z.string()).describe('Fields to change').optional(),
                };
        return { name: `${service}_${verb}_${object}`, description, shape };
      }),
    ),
  );
}

/** An MCP server offering the generated tools; each answers with what it was called with. */
export function generatedToolServer(): McpServer {
  const server = new McpServer({ name: 'many-tools', version: '1.0.0' });
  for (const { name, description, shape } of generatedTools()) {
    server.registerTool(name, { description, inputSchema: shape }, async (args: Record<string, unknown>) => ({
      content: [{ type: 'text' as const, text: `${name} done with ${JSON.stringify(args)}` }],
    }));
  }
  return server;
}
