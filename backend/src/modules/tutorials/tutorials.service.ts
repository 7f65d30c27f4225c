import { Injectable } from '@nestjs/common';
import type { Principal } from '../../common/auth/principal';
import { badInput, notFound } from '../../common/errors/domain-error';
import { likePattern, toPage } from '../../common/http/pagination';
import type {
  CreateTutorialBody,
  TutorialDto,
  TutorialListQuery,
  TutorialPageResponse,
  UpdateTutorialBody,
} from './dto/tutorial.dto';
import { BAD_THUMBNAIL, BAD_VIDEO, isUploadedSrc, normalizeVideo } from './tutorial-rules';
import { TutorialsRepository, type TutorialPlayCount, type TutorialValues } from './tutorials.repository';

const PAGE_SIZE = 100;
const tutorialNotFound = () => notFound('Tutorial', 'tutorial_not_found');

/** Tutorials: every signed-in user watches them (by language); staff managers and admins manage them. */
@Injectable()
export class TutorialsService {
  constructor(private readonly repository: TutorialsRepository) {}

  async list(query: TutorialListQuery): Promise<TutorialPageResponse> {
    const page = toPage(query, PAGE_SIZE);
    const text = query.query?.trim();
    const { rows, total } = await this.repository.page(
      { language: query.language ?? null, name: text ? likePattern(text) : null },
      page,
    );
    return { tutorials: rows, total, page: page.page, limit: page.limit };
  }

  async get(id: number): Promise<TutorialDto> {
    const row = await this.repository.find(id);
    if (!row) throw tutorialNotFound();
    return row;
  }

  create(body: CreateTutorialBody): Promise<TutorialDto> {
    return this.repository.insert({
      name: body.name,
      thumbnail: thumbnailOf(body.thumbnail),
      order: body.order ?? 0,
      src: videoOf(body.src),
      language: body.language ?? 'en',
    });
  }

  async update(body: UpdateTutorialBody): Promise<TutorialDto> {
    const changes: Partial<TutorialValues> = {};
    if (body.name !== undefined) changes.name = body.name;
    if (body.thumbnail !== undefined) changes.thumbnail = thumbnailOf(body.thumbnail);
    if (body.order !== undefined) changes.order = body.order;
    if (body.src !== undefined) changes.src = videoOf(body.src);
    if (body.language !== undefined) changes.language = body.language;
    const row = await this.repository.update(body.tutorial_id, changes);
    if (!row) throw tutorialNotFound();
    return row;
  }

  async remove(id: number): Promise<void> {
    if (!(await this.repository.delete(id))) throw tutorialNotFound();
  }

  /** Plays per tutorial in the range, most played first, for the analytics `videos` call. */
  playCounts(range: { from: Date; to: Date }): Promise<TutorialPlayCount[]> {
    return this.repository.playCounts(range);
  }

  /** Counts one play by the caller. */
  async play(me: Principal, id: number): Promise<void> {
    if (!(await this.repository.addPlay(id, me.user_id))) throw tutorialNotFound();
  }
}

function videoOf(src: string): string {
  const video = normalizeVideo(src);
  if (!video) throw badInput(BAD_VIDEO, 'bad_input');
  return video;
}

function thumbnailOf(thumbnail: string | null | undefined): string | null {
  const value = thumbnail?.trim();
  if (!value) return null;
  if (!isUploadedSrc(value)) throw badInput(BAD_THUMBNAIL, 'bad_input');
  return value;
}
