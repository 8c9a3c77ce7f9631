import { DeliverySection } from './DeliverySection';
import { LanguageSection } from './LanguageSection';
import { MediaSection } from './MediaSection';
import { ModelSettings } from './ModelSettings';
import { ProblemSummary } from './ProblemSummary';
import { QualitySection } from './QualitySection';
import { ScriptSection } from './ScriptSection';
import { SpeakersSection } from './SpeakersSection';
import { SubmitBar, onSubmit } from './SubmitBar';
import { TranslationSection } from './TranslationSection';
import { UnderstandingSection } from './UnderstandingSection';

export function RequestForm() {
  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Transcription request">
      <ProblemSummary />
      <MediaSection />
      <LanguageSection />
      <QualitySection />
      <ScriptSection />
      <SpeakersSection />
      <TranslationSection />
      <UnderstandingSection />
      <DeliverySection />
      <ModelSettings />
      <SubmitBar />
    </form>
  );
}
