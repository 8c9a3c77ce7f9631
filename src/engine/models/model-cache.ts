/**
 * Models loaded once and kept for later requests, by a key that names what was loaded (host,
 * model id, device). A load that fails is forgotten, so that the next request tries again.
 */
export class ModelCache<T> {
  private readonly loads = new Map<string, Promise<T>>();

  get(key: string, load: () => Promise<T>): Promise<T> {
    let loading = this.loads.get(key);
    if (loading === undefined) {
      loading = load();
      this.loads.set(key, loading);
      loading.catch(() => {
        if (this.loads.get(key) === loading) this.loads.delete(key);
      });
    }
    return loading;
  }
}
