import type { User } from '@a2a-js/sdk/server';
import { WeftA2aError } from '../errors/weft-a2a-error.js';
import { type A2aAuthOptions, bearerOf, Refusal, sameToken } from './request-guard.js';
import { A2aPrincipal } from './task-scope.js';

/** The bearer check of a served agent: who a request is, or a 401 refusal. */
export interface RequestAuth {
  /** True when the card declares the bearer scheme (a token or an `authenticate` is configured). */
  readonly bearer: boolean;
  /** The caller (`undefined`: anonymous, or the holder of the one shared token). */
  check(request: Request): Promise<User | undefined>;
}

/**
 * The bearer check for `options`: with `authenticateRequest`, every request needs credentials it maps
 * to a principal; with `authenticate`, every request needs a token it maps to a
 * principal; with one `token`, requests present it when `required` (and a wrong one is always refused);
 * without either, nothing is checked — refused outright when `required`.
 *
 * @throws WeftA2aError `INVALID_ARGUMENT` when a token is required but none is configured, or the token
 *   is shorter than 16 characters.
 */
export function requestAuth(options: A2aAuthOptions | undefined): RequestAuth {
  const { token, authenticate, authenticateRequest, required } = options ?? {};
  if (token !== undefined && token.length < 16)
    throw new WeftA2aError('INVALID_ARGUMENT', 'auth.token must have at least 16 characters');
  if (authenticateRequest) {
    return {
      bearer: true,
      check: async (request) => {
        const principal = await authenticateRequest(request);
        if (principal === undefined) throw unauthorized('valid credentials are required');
        return new A2aPrincipal(principal);
      },
    };
  }
  if (authenticate) {
    return {
      bearer: true,
      check: async (request) => {
        const given = bearerOf(request);
        const principal = given === undefined ? undefined : await authenticate(given);
        if (principal === undefined) throw unauthorized('a valid bearer token is required');
        return new A2aPrincipal(principal);
      },
    };
  }
  if (token === undefined) {
    if (required)
      throw new WeftA2aError(
        'INVALID_ARGUMENT',
        'auth: a token is required (the server binds beyond loopback); give auth.token or auth.authenticate',
      );
    return { bearer: false, check: async () => undefined };
  }
  return {
    bearer: true,
    check: async (request) => {
      const given = bearerOf(request);
      if (given === undefined) {
        if (required) throw unauthorized('a bearer token is required');
        return undefined;
      }
      if (!sameToken(given, token)) throw unauthorized('wrong bearer token');
      return undefined;
    },
  };
}

function unauthorized(message: string): Refusal {
  return new Refusal(401, 'TOKEN_REQUIRED', `${message} (send Authorization: Bearer <token>)`);
}
