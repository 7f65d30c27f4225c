import { isUploadedSrc, normalizeVideo } from './tutorial-rules';

describe('tutorial video rules', () => {
  it('keeps the YouTube id of every link form and of a bare id', () => {
    for (const link of [
      'dQw4w9WgXcQ',
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=3',
      'https://youtu.be/dQw4w9WgXcQ',
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
      'https://youtube.com/shorts/dQw4w9WgXcQ',
      ' https://m.youtube.com/watch?v=dQw4w9WgXcQ ',
    ])
      expect(normalizeVideo(link)).toBe('dQw4w9WgXcQ');
  });

  it('keeps an uploaded video src and refuses other sites, schemes and paths', () => {
    expect(normalizeVideo('/api/files/content/abc.mp4')).toBe('/api/files/content/abc.mp4');
    expect(normalizeVideo('https://vimeo.com/123')).toBeNull();
    expect(normalizeVideo('javascript:alert(1)')).toBeNull();
    expect(normalizeVideo('https://www.youtube.com/watch?v=short')).toBeNull();
    expect(normalizeVideo('/api/files/content/../secret')).toBeNull();
    expect(normalizeVideo('/etc/passwd')).toBeNull();
    expect(isUploadedSrc('/api/files/content/')).toBe(false);
  });
});
