import { describe, expect, it } from 'vitest';
import {
  ERROR_CODES,
  ServiceError,
  errorBody,
  isClientError,
  newRequestId,
  thrownMessage,
  toServiceError,
} from './errors';

describe('errorBody', () => {
  it('renders the status, message, request id and each field problem', () => {
    const error = new ServiceError('invalid_request', 'The request has 1 problem.', [
      { field: 'language', message: 'language is required.' },
    ]);
    const body = errorBody(error, {
      path: '/audio/text/audio-transcription/',
      requestId: 'M-0123abcd',
      now: new Date('2026-01-02T03:04:05.000Z'),
    });
    expect(body).toEqual({
      timestamp: '2026-01-02T03:04:05.000Z',
      path: '/audio/text/audio-transcription/',
      request_id: 'M-0123abcd',
      statusCode: 422,
      error: 'invalid_request',
      message: 'The request has 1 problem.',
      validation_errors: ['language: language is required.'],
      field_errors: [{ field: 'language', message: 'language is required.' }],
    });
  });
});

describe('error codes', () => {
  it('maps each required failure to its HTTP status', () => {
    expect(ERROR_CODES.bad_request.status).toBe(400);
    expect(ERROR_CODES.unauthorized.status).toBe(401);
    expect(ERROR_CODES.payload_too_large.status).toBe(413);
    expect(ERROR_CODES.unsupported_media.status).toBe(415);
    expect(ERROR_CODES.undecodable_media.status).toBe(422);
    expect(ERROR_CODES.internal_error.status).toBe(500);
  });

  it('tells request problems from failures of the service', () => {
    expect(isClientError('invalid_request')).toBe(true);
    expect(isClientError('unsupported_media')).toBe(true);
    expect(isClientError('internal_error')).toBe(false);
    expect(isClientError('engine_unavailable')).toBe(false);
  });

  it('wraps unknown failures as internal errors and aborts as cancellations', () => {
    expect(toServiceError(new Error('boom')).code).toBe('internal_error');
    expect(toServiceError(new DOMException('stop', 'AbortError')).code).toBe('cancelled');
    const own = new ServiceError('payload_too_large', 'too big');
    expect(toServiceError(own)).toBe(own);
  });

  it('says what a thrown value that is not an Error says, never "[object Object]"', () => {
    const exit = { name: 'ExitStatus', message: 'Program terminated with exit(1)', status: 1 };
    expect(toServiceError(exit).message).toBe('Internal failure: Program terminated with exit(1)');
    expect(toServiceError({ status: 1 }).message).toBe('Internal failure: {"status":1}');
    expect(toServiceError({}).message).toBe('Internal failure: an unexpected value was thrown');
    expect(toServiceError('gone').message).toBe('Internal failure: gone');
    expect(thrownMessage(7)).toBe('7');
  });

  it('makes request ids of the documented shape', () => {
    expect(newRequestId()).toMatch(/^M-[0-9a-f]{8}$/);
    expect(newRequestId(() => 0)).toBe('M-00000000');
  });
});
