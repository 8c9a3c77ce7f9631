import { BatchQueue } from './BatchQueue';
import { Header } from './Header';
import { HistoryPanel } from './HistoryPanel';
import { RequestForm } from './RequestForm';
import { ResultPanel } from './ResultPanel';
import { UpdatePrompt } from './UpdatePrompt';
import { VoicesPanel } from './VoicesPanel';

export function App() {
  return (
    <div className="min-h-screen bg-slate-100">
      <Header />
      <main className="mx-auto grid max-w-6xl gap-6 px-4 py-6 lg:grid-cols-[minmax(0,26rem)_minmax(0,1fr)]">
        <RequestForm />
        <div className="min-w-0 space-y-6">
          <BatchQueue />
          <ResultPanel />
          <HistoryPanel />
          <VoicesPanel />
        </div>
      </main>
      <UpdatePrompt />
    </div>
  );
}
