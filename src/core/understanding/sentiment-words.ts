/**
 * The words sentiment rules turn on, by language: negations, intensifiers and softeners, and the
 * contrast word after which a sentence's weight lies ("good, but too long" leans on what follows
 * "but"). Lower case, composed accents, as `termForm` writes them. Elisions are cut off before
 * lookup, so French "n'" is "n".
 */

export interface SentimentRuleWords {
  /** Words that turn the sentiment of a nearby word around ("not good"). */
  negations: ReadonlySet<string>;
  /**
   * Negations that may also follow the word they negate, as in German "ich mag es nicht" or
   * French "je n'aime pas": they apply to the word before them when no word after them carries
   * sentiment.
   */
  trailingNegations: ReadonlySet<string>;
  /** Words that make a nearby sentiment word stronger (+) or weaker (-): "very", "slightly". */
  degree: ReadonlyMap<string, 1 | -1>;
  /** Words after which the rest of the sentence weighs more than what came before. */
  contrast: ReadonlySet<string>;
}

function rules(
  negations: string,
  trailing: string,
  stronger: string,
  weaker: string,
  contrast: string,
): SentimentRuleWords {
  const words = (list: string) => list.split(/\s+/).filter((w) => w !== '');
  const degree = new Map<string, 1 | -1>();
  for (const w of words(stronger)) degree.set(w, 1);
  for (const w of words(weaker)) degree.set(w, -1);
  return {
    negations: new Set(words(negations)),
    trailingNegations: new Set(words(trailing)),
    degree,
    contrast: new Set(words(contrast)),
  };
}

/** The languages whose sentiment rules and word lists Murmur has, by ISO 639-1 code. */
export const SENTIMENT_RULE_WORDS: Readonly<Record<string, SentimentRuleWords>> = {
  en: rules(
    `not no never none nobody nothing neither nor nowhere cannot without
     isn't aren't wasn't weren't don't doesn't didn't won't wouldn't can't couldn't shouldn't
     hasn't haven't hadn't mustn't ain't isnt arent wasnt dont doesnt didnt wont cant couldnt`,
    '',
    `very really so too extremely absolutely completely totally truly highly incredibly
     deeply especially exceptionally hugely remarkably utterly most more quite entirely
     thoroughly particularly`,
    `slightly somewhat barely hardly little bit rather fairly kind sort partly less`,
    'but however yet although though',
  ),
  fr: rules(
    `ne n pas jamais rien personne aucun aucune ni non sans guère`,
    `pas jamais rien`,
    `très trop vraiment tellement si extrêmement absolument complètement totalement
     profondément particulièrement vachement hyper plus`,
    `peu légèrement assez plutôt moyennement moins`,
    'mais cependant pourtant toutefois néanmoins',
  ),
  de: rules(
    `nicht nie niemals kein keine keinen keinem keiner keines nichts niemand weder noch ohne`,
    `nicht nie niemals nichts`,
    `sehr so zu wirklich extrem absolut völlig total ganz echt besonders äußerst höchst
     unglaublich richtig voll mehr`,
    `etwas wenig kaum ziemlich eher leicht bisschen weniger`,
    'aber jedoch doch allerdings sondern',
  ),
  es: rules(
    `no nunca jamás nada nadie ningún ninguno ninguna ni sin tampoco`,
    '',
    `muy tan demasiado realmente extremadamente absolutamente completamente totalmente
     increíblemente sumamente bastante más mucho`,
    `poco algo apenas ligeramente medio menos`,
    'pero sino aunque',
  ),
};

/** The languages Murmur reads sentiment in. */
export const SENTIMENT_LANGUAGES: readonly string[] = Object.keys(SENTIMENT_RULE_WORDS);
