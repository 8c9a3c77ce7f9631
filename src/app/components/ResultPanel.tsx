import { useEditedResponse } from '../hooks/use-edited-response';
import { useShortcuts } from '../hooks/use-shortcuts';
import { RESULT_HEADING_ID } from '../lib/result-focus';
import { useAppStore } from '../store/app-store';
import { currentSegments } from '../store/editor-slice';
import { ChapterStrip } from './ChapterStrip';
import { ChaptersView } from './ChaptersView';
import { CloseResultButton } from './CloseResultButton';
import { CueLimitsForm } from './CueLimitsForm';
import { DocumentDownloads } from './DocumentDownloads';
import { Downloads } from './Downloads';
import { JobStatus } from './JobStatus';
import { MediaPlayer } from './MediaPlayer';
import { NetworkNote } from './NetworkNote';
import { OpenSavedResult } from './OpenSavedResult';
import { PredictionView } from './PredictionView';
import { ProvisionalText } from './ProvisionalText';
import { ResultSummary } from './ResultSummary';
import { SegmentList } from './SegmentList';
import { SentimentView } from './SentimentView';
import { SpeakerTimeline } from './SpeakerTimeline';
import { SubtitleCheckPanel } from './SubtitleCheckPanel';
import { SummaryView } from './SummaryView';
import { WebhookStatus } from './WebhookStatus';
import { TranscriptEditor } from './TranscriptEditor';

export function ResultPanel() {
  const result = useEditedResponse();
  const name = useAppStore((s) => s.resultName);
  const live = useAppStore((s) => s.liveSegments);
  const provisional = useAppStore((s) => s.provisionalSegments);
  const running = useAppStore((s) => s.status === 'running');
  const media = useAppStore((s) => s.resultMedia);
  // The segments with their speakers' labels: the editor and the timeline apply the names.
  const labelled = useAppStore(currentSegments);
  useShortcuts();
  const duration = result?.prediction_raw.metadata.provided_file_metadata.duration ?? 0;
  const chapters = result?.prediction_raw.chapters;
  const summarization = result?.prediction_raw.summarization;
  const emotions = result?.prediction_raw.emotions;
  const emotionsSummary = result?.prediction_raw.emotions_summary;
  return (
    <section aria-label="Result" id="result" className="min-w-0 scroll-mt-4 space-y-4">
      <JobStatus />
      {result ? (
        <div className="space-y-4" data-testid="result">
          <div className="space-y-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h2
                id={RESULT_HEADING_ID}
                tabIndex={-1}
                className="min-w-0 truncate rounded text-lg font-semibold text-slate-900 focus:outline-2 focus:outline-offset-2 focus:outline-indigo-600"
                data-testid="result.title"
              >
                {name}
              </h2>
              <div className="flex flex-wrap items-center gap-2">
                <Downloads result={result} name={name} />
                <CloseResultButton />
              </div>
            </div>
            <CueLimitsForm segments={result.prediction_raw.transcription} duration={duration} />
            <SubtitleCheckPanel
              segments={result.prediction_raw.transcription}
              duration={duration}
            />
            <DocumentDownloads result={result} name={name} />
            <ResultSummary result={result} />
            <NetworkNote />
            <WebhookStatus />
            {media && (
              <MediaPlayer
                media={media}
                segments={result.prediction_raw.transcription}
                duration={duration}
              />
            )}
            {media && chapters && <ChapterStrip chapters={chapters} duration={duration} />}
          </div>
          {summarization && <SummaryView summary={summarization} playable={media !== null} />}
          {chapters && (
            <ChaptersView
              chapters={chapters}
              note={result.prediction_raw.chapters_note}
              playable={media !== null}
            />
          )}
          {emotions && emotionsSummary && (
            <SentimentView
              emotions={emotions}
              summary={emotionsSummary}
              note={result.prediction_raw.emotions_note}
              playable={media !== null}
            />
          )}
          <SpeakerTimeline
            segments={labelled ?? []}
            mediaDuration={duration}
            playable={media !== null}
            emotions={emotions}
          />
          <div className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
            <TranscriptEditor
              segments={labelled ?? []}
              playable={media !== null}
              chapters={chapters}
            />
          </div>
          <PredictionView result={result} />
        </div>
      ) : running && (live.length > 0 || provisional.length > 0) ? (
        <div className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
          {live.length > 0 && <SegmentList segments={live} />}
          <ProvisionalText segments={provisional} />
        </div>
      ) : (
        !running && (
          <div className="rounded-2xl border border-dashed border-slate-400 p-8 text-center">
            <p className="text-base font-medium text-slate-800">Your transcript will appear here</p>
            <p className="mt-1 text-sm text-slate-600">
              Segments with times, speakers and languages, ready to correct and to download as SRT,
              VTT, TXT or JSON.
            </p>
          </div>
        )
      )}
      <OpenSavedResult />
    </section>
  );
}
