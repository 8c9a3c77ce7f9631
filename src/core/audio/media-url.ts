/**
 * Pages of video and audio platforms are web pages, not media files: a browser cannot read the
 * media behind them (they need the platform's own player, sign-in or extraction tools).
 */
const PLATFORMS: readonly { name: string; domains: readonly string[] }[] = [
  { name: 'YouTube', domains: ['youtube.com', 'youtu.be', 'youtube-nocookie.com'] },
  { name: 'TikTok', domains: ['tiktok.com'] },
  { name: 'Instagram', domains: ['instagram.com', 'instagr.am'] },
  { name: 'X (Twitter)', domains: ['twitter.com', 'x.com', 't.co'] },
  { name: 'Facebook', domains: ['facebook.com', 'fb.com', 'fb.watch'] },
  { name: 'Vimeo', domains: ['vimeo.com'] },
  { name: 'Dailymotion', domains: ['dailymotion.com', 'dai.ly'] },
  { name: 'Twitch', domains: ['twitch.tv'] },
  { name: 'SoundCloud', domains: ['soundcloud.com'] },
  { name: 'Spotify', domains: ['spotify.com'] },
  { name: 'Reddit', domains: ['reddit.com', 'redd.it'] },
  { name: 'LinkedIn', domains: ['linkedin.com'] },
  { name: 'Snapchat', domains: ['snapchat.com'] },
  { name: 'Bilibili', domains: ['bilibili.com', 'b23.tv'] },
  { name: 'Rumble', domains: ['rumble.com'] },
  { name: 'Loom', domains: ['loom.com'] },
];

/** The platform whose page the URL is, or null for any other address. */
export function socialPlatformOf(url: string): string | null {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return null;
  }
  for (const p of PLATFORMS) {
    if (p.domains.some((d) => host === d || host.endsWith(`.${d}`))) return p.name;
  }
  return null;
}
