/**
 * The message catalog: every message in da, en, fr and de with the same placeholders, and English messages
 * (as services throw them) answered in the request's language.
 */
import { AppError, ConflictError, ForbiddenError, GoneError, NotFoundError, UnauthenticatedError, UnavailableError } from '../../../src/errors/app-error';
import { AUTH_CODES } from '../../../src/errors/codes';
import { LANGUAGES } from '../../../src/i18n';
import { wordpressFamily } from '../../../src/rest/wordpress/family';
import { CORE_MESSAGES, formatMessage, listJoin, registerWordpressErrorCodes, TEC_MESSAGES, translateMessage } from '../../../src/rest/wordpress/messages';

const placeholders = (s: string) => [...s.matchAll(/%(?:(\d)\$)?([sdl])/g)].map((m) => m[0]).sort();

describe('catalog', () => {
  const all = { ...CORE_MESSAGES, ...TEC_MESSAGES } as Record<string, Record<string, string>>;
  it.each(Object.keys(all))('%s: all four languages, same placeholders, really translated', (id) => {
    const e = all[id];
    for (const l of LANGUAGES) {
      expect(typeof e[l]).toBe('string');
      expect(e[l].length).toBeGreaterThan(0);
      expect(placeholders(e[l])).toEqual(placeholders(e.en));
    }
    expect(new Set(LANGUAGES.map((l) => e[l])).size).toBeGreaterThan(2);
  });

  it('has every TEC code of the reference', () => {
    for (const code of [
      'event-archive-page-not-found', 'venue-archive-page-not-found', 'organizer-archive-page-not-found', 'rest-event-not-found',
      'rest-invalid-event-id', 'event-not-accessible', 'event-password-protected', 'event-no-longer-available', 'event-is-in-trash',
      'could-not-delete-event', 'could-not-update-event', 'venue-not-accessible', 'organizer-not-accessible', 'venue-is-in-trash',
      'organizer-is-in-trash', 'could-not-create-venue', 'could-not-create-organizer', 'invalid-linked-post-id', 'archive-bad-search-string',
    ]) {
      expect(TEC_MESSAGES[code]).toBeDefined();
    }
  });

  it('lists and sprintf', () => {
    expect(listJoin(['da', 'en', 'fr', 'de'])).toBe('da, en, fr, and de');
    expect(listJoin(['a', 'b'], 'de')).toBe('a und b');
    expect(formatMessage('%1$s is not one of %2$l.', ['x', ['a', 'b', 'c']], 'da')).toBe('x is not one of a, b og c.');
    expect(formatMessage('Event with ID %d does not exist.', [42])).toBe('Event with ID 42 does not exist.');
  });

  it('translateMessage recognises an English message by its template and keeps its values', () => {
    expect(translateMessage('Event with ID 42 does not exist.', 'de')).toBe('Die Veranstaltung mit der ID 42 existiert nicht.');
    expect(translateMessage('i18n_language is not one of da, en, fr, and de.', 'fr')).toBe('i18n_language n’est pas l’une des valeurs suivantes : da, en, fr et de.');
    expect(translateMessage('Something only this service says', 'da')).toBe('Something only this service says');
    expect(translateMessage('Event with ID 42 does not exist.', 'en')).toBe('Event with ID 42 does not exist.');
    expect(translateMessage('Event with ID 42 does not exist.')).toBe('Event with ID 42 does not exist.');
  });
});

describe('TEC codes from services (domainCode) through the family', () => {
  const reply = (e: AppError, language?: 'da' | 'en' | 'fr' | 'de') => wordpressFamily.errorReply(e, undefined, language);

  it('the domain code is the answer code; status from the TEC table; message translated', () => {
    const gone = reply(new GoneError('The event is already trashed', { domainCode: 'event-is-in-trash' }), 'da');
    expect(gone).toMatchObject({ status: 410, body: { code: 'event-is-in-trash', message: 'Begivenheden er allerede i papirkurven', data: { status: 410 } } });
    const nf = reply(new NotFoundError('Event with ID 7 does not exist.', { domainCode: 'rest-event-not-found' }), 'fr');
    expect(nf).toMatchObject({ status: 404, body: { code: 'rest-event-not-found', message: 'L’évènement avec l’ID 7 n’existe pas.' } });
    expect(reply(new UnavailableError('The event could not be deleted', { domainCode: 'could-not-delete-event' }))).toMatchObject({ status: 500, body: { code: 'could-not-delete-event' } });
    expect(reply(new ForbiddenError('The event could not be updated', { domainCode: 'could-not-update-event' }), 'en').body).toMatchObject({ message: 'The event could not be updated' });
  });

  it('codes a domain registers get their status; unregistered WordPress-style codes the category’s', () => {
    registerWordpressErrorCodes({ 'term_exists': 400 });
    expect(reply(new ConflictError('A term with the name provided already exists.', { domainCode: 'term_exists' })).status).toBe(400);
    expect(reply(new ConflictError('x', { domainCode: 'some-new-code' }))).toMatchObject({ status: 409, body: { code: 'some-new-code' } });
    // Upper-case domain codes are the spine's own, never used as WordPress codes.
    expect(reply(new ConflictError('x', { domainCode: 'RESOLUTION_UNCHANGED' })).body).toMatchObject({ code: 'rest_conflict' });
  });

  it('application password failures: WordPress codes and messages (no secret), 401', () => {
    expect(reply(new UnauthenticatedError('Bad credentials', { domainCode: AUTH_CODES.UNKNOWN_LOGIN }))).toEqual({
      status: 401,
      headers: {},
      body: { code: 'invalid_username', message: '<strong>Error:</strong> Unknown username. Check again or try your email address.', data: { status: 401 } },
    });
    expect(reply(new UnauthenticatedError('Bad credentials', { domainCode: AUTH_CODES.WRONG_PASSWORD }), 'de').body).toEqual({
      code: 'incorrect_password',
      message: 'Das angegebene Passwort ist kein gültiges Anwendungspasswort.',
      data: { status: 401 },
    });
  });

  it('WordPress’s rest_forbidden message is translated too', () => {
    expect(reply(new ForbiddenError('Sorry, you are not allowed to do that.'), 'fr').body).toMatchObject({ code: 'rest_forbidden', message: 'Désolé, vous n’avez pas l’autorisation de faire cela.' });
  });
});
